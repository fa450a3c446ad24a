/**
 * The home page's code showcase: `getTodo` from the team to-do app in examples/todo-app, then the app's files that
 * reach it, or a function beside it, on each transport. Only the file and region are named here: the app-snippets
 * plugin (src/plugins/app-snippets.ts) reads the code from the app at build time, so the home page cannot drift from
 * the app the site compiles.
 */
export type AppSnippet = { file: string; region?: string };
export type ShowcaseTab = AppSnippet & { value: string; label: string };

export const functionSample: AppSnippet = { file: 'src/functions/todos.functions.ts', region: 'getTodo' };

export const wiringTabs: ShowcaseTab[] = [
  { value: 'http', label: 'HTTP', file: 'src/wirings/todos.http.ts' },
  { value: 'channel', label: 'WebSocket', file: 'src/wirings/todos.channel.ts' },
  { value: 'rpc', label: 'RPC', file: 'src/functions/todos.mcp.ts', region: 'todoResource' },
  { value: 'mcp', label: 'MCP', file: 'src/wirings/todos.mcp.ts', region: 'resource' },
  { value: 'queue', label: 'Queue', file: 'src/wirings/reminders.queue.ts' },
  { value: 'cron', label: 'Cron', file: 'src/wirings/digest.scheduler.ts' },
];

/** Every snippet the home page shows, keyed by file and region (the key the plugin stores the code under). */
export const snippetKey = ({ file, region }: AppSnippet): string => (region ? `${file}#${region}` : file);
export const showcaseSnippets: AppSnippet[] = [functionSample, ...wiringTabs];

export const installCommand = 'npm create pikku@latest -- --name my-app';
