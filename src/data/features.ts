/** What the home page promises, each backed by a docs page that shows it. */
export type Feature = { title: string; body: string; href: string };

export const features: Feature[] = [
  {
    title: 'Types become validation',
    body: 'Input and output types compile to JSON Schema at build time. With a schema service configured, bad input is rejected before your code runs, over HTTP with a 422 (on a server-sent-events route, as an error event in the stream).',
    href: '/docs/philosophy/types-and-schemas',
  },
  {
    title: 'Generated, typed clients',
    body: 'Name the files under clientFiles in pikku.config.json and the CLI writes typed clients from your wirings, among them a fetch client, a WebSocket client and an RPC client, so the front end breaks at compile time, not in production.',
    href: '/docs/philosophy/typed-clients',
  },
  {
    title: 'Services, injected',
    body: 'Singleton and per-call services arrive as the first argument. Tests pass plain objects; no container, no decorators.',
    href: '/docs/core-features/services',
  },
  {
    title: 'Guards that follow the function',
    body: "A function's permissions and own middleware, and an exported pikkuFunc's need for a session, are declared once, on the function, and apply over HTTP, channels, RPC and MCP alike. A pikkuFunc left unexported runs without a session on an HTTP route with auth: false.",
    href: '/docs/core-features/permission-guards',
  },
  {
    title: 'Smaller builds per deployment',
    body: 'A generated service manifest and CLI filters, such as by tag, wiring type or directory, leave out of each bundle the routes, channels, workers and tasks it does not serve. Gateway and workflow wiring files are not filtered and load in every build.',
    href: '/docs/philosophy/tree-shaking',
  },
  {
    title: 'Ready for AI agents',
    body: 'Set mcp: true in the config of an exported function and it becomes a Model Context Protocol tool; an object input type gives the tool an input schema generated from that type.',
    href: '/docs/mcp',
  },
  {
    title: 'Durable workflows',
    body: 'Chain functions into workflows whose every step is recorded, so a run can sleep, retry and wait for approval. With a persistent store and a queue it can carry on after a restart; a sleeping run also needs a scheduler that stores its wake-up, such as the BullMQ or pg-boss one, and a worker for the remote RPC queue it parks the wake-up on.',
    href: '/docs/workflows',
  },
  {
    title: 'Agents with your functions as tools',
    body: 'Declare an AI agent and hand it the functions you already wrote as tools. Runs stream, keep their threads when an agentStorage service is configured, and stop for approval before calling a function marked approvalRequired, unless a streamed run passes requiresToolApproval: false.',
    href: '/docs/ai-agents',
  },
  {
    title: 'Errors that say how to fix them',
    body: 'The CLI checks your wirings at build time. Most findings that fail the build print a PKU code and a link to a page with the cause and the fix; a few, such as two types extending CoreUserSession, stop it with a plain error.',
    href: '/docs/pikku-cli/errors',
  },
];
