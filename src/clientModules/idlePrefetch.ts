/**
 * Link prefetching in idle time.
 *
 * Docusaurus prefetches the chunks of every link that scrolls into view (not on 2g or with save-data). Each prefetch
 * matches the link against every route and adds `<link rel="prefetch">` tags, and the browser reports all the links
 * in view at once, so right after hydration one task did that for every link on screen: on a docs page, a long task
 * that blocked input. Here each prefetch waits in a queue that runs while the browser is idle, a few at a time, in
 * turns of at most TURN_MS.
 * Hover and touch still preload at once (Docusaurus's `preload`, not changed).
 */
import type { ClientModule } from '@docusaurus/types';

const queue: Array<() => void> = [];
const whenIdle = (run: (deadline?: IdleDeadline) => void) =>
  'requestIdleCallback' in window ? requestIdleCallback(run) : setTimeout(run, 0);

/**
 * The longest a turn keeps prefetching, in ms. An idle period can last 50 ms, and a turn that filled it would itself be
 * a long task on a slower phone (Lighthouse counts each task's time over 50 ms on a CPU four times slower).
 */
export const TURN_MS = 4;

function drain(deadline?: IdleDeadline): void {
  // At least one prefetch per turn; more while the browser has idle time left and the turn is under TURN_MS.
  const end = performance.now() + TURN_MS;
  do queue.shift()?.();
  while (queue.length > 0 && deadline && deadline.timeRemaining() > 0 && performance.now() < end);
  if (queue.length > 0) whenIdle(drain);
}

let installed = false;

const idlePrefetch: ClientModule = {
  // The first call comes as the hydrated page commits, before links start watching the viewport.
  onRouteDidUpdate() {
    if (installed) return;
    installed = true;
    const api = window.docusaurus; // frozen by Docusaurus: replaced, not changed
    const prefetch = api.prefetch;
    window.docusaurus = {
      ...api,
      // Resolves as the original does once it has run (to nothing where it declined, as on 2g).
      prefetch: (routePath) =>
        new Promise<void[]>((resolve) => {
          queue.push(() => resolve(prefetch(routePath) || []));
          if (queue.length === 1) whenIdle(drain);
        }),
    };
  },
};

export default idlePrefetch;
