import { skillLabel, skillNames } from './skills';

export type Redirect = { from: string; to: string };

/**
 * Pages the route map names twice. The first name is the page; these are the other names,
 * served as static redirect pages by @docusaurus/plugin-client-redirects.
 * tests/unit/config.test.mjs checks that it covers every alias of the spec's route map (tests/data/spec-routes.txt).
 */
export const redirects: Redirect[] = [
  { from: '/docs/api/pikku-task-scheduler', to: '/docs/api/task-scheduler' },
  { from: '/docs/core-features/cli', to: '/docs/core-features/pikku-cli' },
  { from: '/docs/custom-runtimes/queue', to: '/docs/custom-runtimes/queue-runtime' },
  { from: '/docs/custom-runtimes/scheduler', to: '/docs/custom-runtimes/scheduler-handler' },
  { from: '/docs/custom-runtimes/websocket', to: '/docs/custom-runtimes/websocket-handler' },
  ...skillNames.map((name) => ({ from: `/docs/skills/${skillLabel(name)}`, to: `/docs/skills/${name}` })),
];
