/**
 * The HTML template of every built page (the `ssrTemplate` option of the site config).
 *
 * The template text is Docusaurus's default page template (packages/docusaurus/src/ssg/ssgTemplate.html.ts of
 * Docusaurus 3.10.2), copied here under its license:
 *
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * This source code is licensed under the MIT license found in the
 * LICENSE file in the root directory of this source tree.
 *
 * (The license is the MIT License of the Docusaurus repository, also at node_modules/@docusaurus/core/LICENSE.)
 *
 * One change: how the page's JavaScript starts. Docusaurus puts `<script defer>` tags in the head. A deferred script
 * runs as soon as the HTML is parsed, and when it has arrived by then (a fast network, or the cache) the browser
 * evaluates the whole app before it first paints the page that is already in the HTML; on a slow phone that holds the
 * text back by the app's evaluation time. Here a small inline script at the end of the body asks for the same scripts,
 * in the same order, once the browser reports the page's first contentful paint (where paint timing is missing, after
 * the first frame; should the paint never be reported, two frames after the load event). The text shows first, then
 * the app loads and hydrates as before. A page in a background tab (which paints nothing) loads them at once. Without
 * JavaScript nothing changes: the page is the HTML.
 *
 * Nothing here is read from inside @docusaurus/core: after a Docusaurus upgrade, compare this text with the new
 * default template (CONTRIBUTING.md, "Upgrading Docusaurus").
 */

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

/** The page template: Docusaurus's default, with the head's `<script defer>` loop replaced by the loader above. */
export const ssrTemplate = `
<!DOCTYPE html>
<html <%~ it.htmlAttributes %>>
  <head>
    <meta charset="UTF-8">
    <meta name="generator" content="Docusaurus v<%= it.version %>">
    <% it.metaAttributes.forEach((metaAttribute) => { %>
      <%~ metaAttribute %>
    <% }); %>
    <%~ it.headTags %>
    <% it.stylesheets.forEach((stylesheet) => { %>
      <link rel="stylesheet" href="<%= it.baseUrl %><%= stylesheet %>" />
    <% }); %>
  </head>
  <body <%~ it.bodyAttributes %>>
    <%~ it.preBodyTags %>
    <div id="__docusaurus"><%~ it.appHtml %></div>
    <%~ it.postBodyTags %>
${appLoader}
  </body>
</html>
`;
