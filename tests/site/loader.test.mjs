// The app loader of src/ssrTemplate.ts, as built into a page, run in a stand-in browser: when it asks for the app's
// scripts, in what order, and never twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runInNewContext } from 'node:vm';
import { firstLoadScripts, readHtml } from '../lib/routes.mjs';

const html = readHtml('/docs');
const loader = /<script data-app-loader>([\s\S]*?)<\/script>/.exec(html)?.[1];

/** A browser with just what the loader touches; `paint` says whether it has paint timing. */
function browser({ hidden = false, paint = true } = {}) {
  const appended = [];
  const listeners = {};
  const frames = [];
  const timers = [];
  const observers = [];
  const document = {
    visibilityState: hidden ? 'hidden' : 'visible',
    addEventListener: (type, fn) => (listeners[type] = fn),
    createElement: () => ({}),
    body: { appendChild: (el) => appended.push({ src: el.src, async: el.async }) },
  };
  class PerformanceObserver {
    static supportedEntryTypes = paint ? ['paint', 'largest-contentful-paint'] : [];
    constructor(callback) {
      this.callback = callback;
      this.disconnected = false;
      observers.push(this);
    }
    observe(options) {
      this.options = options;
    }
    disconnect() {
      this.disconnected = true;
    }
  }
  const windowListeners = {};
  const window = { document, PerformanceObserver };
  Object.assign(window, {
    window,
    addEventListener: (type, fn) => (windowListeners[type] = fn),
    requestAnimationFrame: (fn) => frames.push(fn),
    setTimeout: (fn) => timers.push(fn),
  });
  runInNewContext(loader, window);
  const run = (list) => list.splice(0).forEach((fn) => fn());
  const report = (names) =>
    observers.forEach((o) => o.callback({ getEntriesByName: (name) => (names.includes(name) ? [{ name }] : []) }, o));
  return {
    appended,
    listeners,
    windowListeners,
    observers,
    frames: () => run(frames),
    timers: () => run(timers),
    report,
    document,
  };
}

test('the built page carries the loader with its own scripts, and no script tag of the app', () => {
  assert.ok(loader, 'the loader is in the HTML');
  const scripts = firstLoadScripts(html);
  assert.ok(scripts.some((s) => /\/main\.[^/]+\.js$/.test(s)) && scripts.some((s) => /runtime~main/.test(s)));
  assert.doesNotMatch(html, /<script[^>]*\ssrc="?\/assets\/js\//);
});

test('with paint timing, the scripts are asked for after the first contentful paint, in order, once', () => {
  const b = browser();
  assert.equal(b.observers[0].options.type, 'paint');
  assert.equal(b.observers[0].options.buffered, true, 'a paint before the loader ran counts');
  b.frames();
  b.timers();
  b.report(['first-paint']);
  b.timers();
  assert.deepEqual(b.appended, [], 'nothing before the first contentful paint');
  b.report(['first-contentful-paint']);
  assert.deepEqual(b.appended, [], 'not inside the observer callback');
  b.timers();
  const expected = firstLoadScripts(html).map((src) => ({ src, async: false }));
  assert.deepEqual(b.appended, expected, 'every script, in order, executed in order');
  assert.equal(b.observers[0].disconnected, true);
  b.listeners.visibilitychange?.();
  assert.equal(b.appended.length, expected.length, 'never twice');
});

test('should the paint never be reported, two frames after the load event', () => {
  const b = browser();
  b.windowListeners.load();
  b.frames();
  b.timers();
  assert.deepEqual(b.appended, [], 'not after one frame');
  b.frames();
  b.timers();
  assert.equal(b.appended.length, firstLoadScripts(html).length);
  b.report(['first-contentful-paint']);
  b.timers();
  assert.equal(b.appended.length, firstLoadScripts(html).length, 'never twice');
});

test('without paint timing, after the first frame', () => {
  const b = browser({ paint: false });
  assert.equal(b.observers.length, 0);
  assert.deepEqual(b.appended, []);
  b.frames();
  b.timers();
  assert.equal(b.appended.length, firstLoadScripts(html).length);
});

test('in a background tab, at once; and when the tab is hidden before the page painted', () => {
  assert.equal(browser({ hidden: true }).appended.length, firstLoadScripts(html).length);
  const b = browser();
  b.document.visibilityState = 'hidden';
  b.listeners.visibilitychange();
  assert.equal(b.appended.length, firstLoadScripts(html).length);
});
