/**
 * The HTML template of every built page: Docusaurus's own (@docusaurus/core/lib/ssg/ssgTemplate.html.js), taken from
 * the installed Docusaurus, except for how the page's JavaScript starts.
 *
 * Docusaurus puts `<script defer>` tags in the head. A deferred script runs as soon as the HTML is parsed, and when
 * it has arrived by then (a fast network, or the cache) the browser evaluates the whole app before it first paints
 * the page that is already in the HTML; on a slow phone that holds the text back by the app's evaluation time. Here
 * a small inline script at the end of the body asks for the same scripts, in the same order, once the browser reports
 * the page's first contentful paint (where paint timing is missing, after the first frame; should the paint never be
 * reported, two frames after the load event). The text shows first, then the app loads and hydrates as before. A
 * page in a background tab (which paints nothing) loads them at once. Without JavaScript nothing changes: the page
 * is the HTML.
 */
import docusaurusTemplate from '@docusaurus/core/lib/ssg/ssgTemplate.html';

/** Docusaurus's loop that writes a `<script defer>` tag per script into the head. */
const SCRIPT_TAGS = /<% it\.scripts\.forEach\(\(script\) => \{ %>\s*<script [\s\S]*?defer><\/script>\s*<% \}\); %>\s*/;

/** Asks for `it.scripts`, in order, once the page has painted. */
const appLoader = `    <script data-app-loader>
      (function (scripts) {
        var started = false;
        function load() {
          if (started) return;
          started = true;
          scripts.forEach(function (src) {
            var script = document.createElement('script');
            script.src = src;
            script.async = false;
            document.body.appendChild(script);
          });
        }
        if (document.visibilityState === 'hidden') return load();
        document.addEventListener('visibilitychange', function () {
          if (document.visibilityState === 'hidden') load();
        });
        function afterFrames(frames) {
          if (frames === 0) return setTimeout(load, 0);
          requestAnimationFrame(function () { afterFrames(frames - 1); });
        }
        var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes;
        if (types && types.indexOf('paint') >= 0) {
          new PerformanceObserver(function (list, observer) {
            if (!list.getEntriesByName('first-contentful-paint').length) return;
            observer.disconnect();
            setTimeout(load, 0);
          }).observe({ type: 'paint', buffered: true });
          // Should the paint never be reported, two frames after the page's load event.
          window.addEventListener('load', function () { afterFrames(2); });
        } else {
          afterFrames(1);
        }
      })(<%~ JSON.stringify(it.scripts.map((script) => it.baseUrl + script)) %>);
    </script>`;

if (!SCRIPT_TAGS.test(docusaurusTemplate) || !docusaurusTemplate.includes('</body>'))
  throw new Error(
    "src/ssrTemplate.ts: Docusaurus's page template no longer has the script tags or the body this file replaces; " +
      'compare it with @docusaurus/core/lib/ssg/ssgTemplate.html.js',
  );

export const ssrTemplate = docusaurusTemplate.replace(SCRIPT_TAGS, '').replace('</body>', `${appLoader}\n  </body>`);
