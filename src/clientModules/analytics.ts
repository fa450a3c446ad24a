/**
 * Loads gtag's script (named by the `data-gtag-src` script that src/plugins/analytics.ts puts in the head) once the
 * app has hydrated and the browser is idle, so analytics never delays the page's first paint or its hydration. The
 * calls made before then wait in `dataLayer`, and gtag sends them when it starts.
 */
import type { ClientModule } from '@docusaurus/types';

let started = false;

function loadGtag(): void {
  const src = document.querySelector<HTMLScriptElement>('script[data-gtag-src]')?.dataset.gtagSrc;
  if (!src) return;
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  document.head.appendChild(script);
}

const analytics: ClientModule = {
  // Called first when the app has rendered the page it hydrated.
  onRouteDidUpdate() {
    if (started) return;
    started = true;
    if ('requestIdleCallback' in window) requestIdleCallback(loadGtag, { timeout: 5000 });
    else setTimeout(loadGtag, 0);
  },
};

export default analytics;
