/**
 * analytics: Google Analytics 4 page views, with anonymized IP addresses, loaded after the page is interactive.
 *
 * It does what the classic preset's gtag plugin does, with one change: that plugin puts gtag's script in the head
 * of every page, where it competes with the page's own files before the first paint. Here the head only defines
 * `gtag()` and its config (calls queue in `dataLayer`), and src/clientModules/analytics.ts adds the script once
 * the app has hydrated and the browser is idle. Page views on route changes come from the gtag plugin's own client
 * module, reused as it is. Like that plugin, it does nothing outside production builds.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';

export type AnalyticsOptions = { trackingID: string; anonymizeIP: boolean };

/** The script gtag runs from; src/clientModules/analytics.ts reads it from the `data-gtag-src` attribute. */
export const gtagScript = (trackingID: string) => `https://www.googletagmanager.com/gtag/js?id=${trackingID}`;

export default function analytics(context: LoadContext, settings: unknown): Plugin | null {
  const options = settings as AnalyticsOptions;
  if (!/^G-[A-Z0-9]+$/.test(options?.trackingID ?? ''))
    throw new Error(`analytics: trackingID must be a Google Analytics 4 id (G-...), not ${options?.trackingID}`);
  if (process.env.NODE_ENV !== 'production') return null;
  const require = createRequire(join(context.siteDir, 'package.json'));
  const config = JSON.stringify(options.anonymizeIP ? { anonymize_ip: true } : {});
  return {
    name: 'analytics',
    getClientModules() {
      return [
        join(context.siteDir, 'src', 'clientModules', 'analytics.ts'),
        // gtag's page_view on every route change after the first (the config call sends the first).
        require.resolve('@docusaurus/plugin-google-gtag/lib/gtag'),
      ];
    },
    injectHtmlTags() {
      return {
        headTags: [
          {
            tagName: 'script',
            attributes: { 'data-gtag-src': gtagScript(options.trackingID) },
            innerHTML: `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config',${JSON.stringify(options.trackingID)},${config});`,
          },
        ],
      };
    },
  };
}
