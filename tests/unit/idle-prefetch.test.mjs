// src/clientModules/idlePrefetch.ts in a stand-in browser: prefetches wait for idle time and run in short turns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule } from '../lib/load.mjs';

test('prefetches run while the browser is idle, in turns of at most TURN_MS, and all of them run', async () => {
  let now = 0;
  const idle = [];
  const prefetched = [];
  const original = { window: globalThis.window, ric: globalThis.requestIdleCallback, now: performance.now };
  globalThis.requestIdleCallback = (run) => idle.push(run);
  globalThis.window = {
    requestIdleCallback: (run) => idle.push(run),
    // Each prefetch takes 1 ms of the stand-in clock.
    docusaurus: Object.freeze({ prefetch: (path) => ((now += 1), prefetched.push(path), [true]) }),
  };
  performance.now = () => now;
  try {
    const { default: idlePrefetch, TURN_MS } = loadModule('src/clientModules/idlePrefetch.ts');
    idlePrefetch.onRouteDidUpdate();
    const paths = Array.from({ length: 20 }, (_, i) => `/docs/page-${i}`);
    const done = Promise.all(paths.map((p) => window.docusaurus.prefetch(p)));
    assert.equal(prefetched.length, 0, 'nothing runs before the browser is idle');
    const turns = [];
    // The browser offers 50 ms of idle time each turn; the queue takes at most TURN_MS of it.
    while (idle.length > 0) {
      const before = prefetched.length;
      idle.shift()({ timeRemaining: () => 50, didTimeout: false });
      turns.push(prefetched.length - before);
    }
    assert.deepEqual(prefetched, paths, 'every prefetch ran, in order');
    assert.ok(turns.length > 1, `more than one turn: ${turns}`);
    for (const n of turns) assert.ok(n <= TURN_MS, `a turn ran ${n} prefetches of 1 ms each`);
    assert.deepEqual(
      await done,
      paths.map(() => [true]),
      'each call resolves as the original did',
    );
  } finally {
    globalThis.window = original.window;
    globalThis.requestIdleCallback = original.ric;
    performance.now = original.now;
  }
});
