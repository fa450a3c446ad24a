/**
 * Site-wide constants: names, addresses and the release the announcement bar points at.
 * The config, the theme and the tests read them from here, so each lives in one place.
 */

export const site = {
  name: 'Pikku',
  tagline: 'The TypeScript function backend',
  url: 'https://pikku.dev',
  baseUrl: '/',
  repository: 'https://github.com/pikkujs/pikku',
  social: 'https://x.com/pikkujs',
  chat: 'https://discord.gg/z7r4rhwJ',
  license: 'MIT',
  copyrightHolders: 'Pikku contributors',
  firstYear: 2021,
} as const;

/** The repository of this website: "Edit this page" links open a page's source file there. */
export const siteRepository = 'https://github.com/pikkujs/website';

/**
 * The Google Analytics 4 measurement id of local and CI builds: an inert id that no analytics property owns.
 * docusaurus.config.ts uses PIKKU_GA_MEASUREMENT_ID instead when it is set (this module is also bundled for the
 * browser, so it reads no environment).
 */
export const inertAnalyticsId = 'G-0000000000';

/** The newest release post. The announcement bar's id and link derive from it. */
export const latestRelease = {
  version: '0.12',
  date: '2026-02-26',
  slug: 'pikku-0.12',
  headline: 'Pikku 0.12 is out: AI agents, workflow graphs and remote RPC',
} as const;

const [year, month, day] = latestRelease.date.split('-');
/** Route of the newest release post: /blog/YYYY/MM/DD/slug. */
export const latestReleaseHref = `/blog/${year}/${month}/${day}/${latestRelease.slug}`;
/** Changing the release changes the id, which shows a dismissed bar again. */
export const announcementId = `release-${latestRelease.version}`;
