/** The runtimes the home page shows, each linking to its docs page. Packages per the fact sheets. */
export type Runtime = {
  name: string;
  pkg: string;
  kind: 'Server' | 'Serverless' | 'Queue' | 'AI agents';
  href: string;
  /** What it runs, in a few words. */
  runs: string;
};

export const runtimes: Runtime[] = [
  {
    name: 'Express',
    pkg: '@pikku/express-middleware',
    kind: 'Server',
    href: '/docs/runtimes/express-middleware',
    runs: 'HTTP inside an Express app',
  },
  {
    name: 'Fastify',
    pkg: '@pikku/fastify-plugin',
    kind: 'Server',
    href: '/docs/runtimes/fastify-plugin',
    runs: 'HTTP as a Fastify plugin',
  },
  {
    name: 'uWebSockets.js',
    pkg: '@pikku/uws-handler',
    kind: 'Server',
    href: '/docs/runtimes/uws-handler',
    runs: 'HTTP and WebSocket channels',
  },
  {
    name: 'ws',
    pkg: '@pikku/ws',
    kind: 'Server',
    href: '/docs/runtimes/ws-handler',
    runs: 'WebSocket channels on Node.js',
  },
  {
    name: 'Next.js',
    pkg: '@pikku/next',
    kind: 'Server',
    href: '/docs/runtimes/nextjs-app',
    runs: 'Route handlers and server actions',
  },
  {
    name: 'AWS Lambda',
    pkg: '@pikku/lambda',
    kind: 'Serverless',
    href: '/docs/runtimes/aws-lambda',
    runs: 'HTTP, WebSocket, SQS and cron events',
  },
  {
    name: 'Cloudflare Workers',
    pkg: '@pikku/cloudflare',
    kind: 'Serverless',
    href: '/docs/runtimes/cloudflare-functions',
    runs: 'fetch, cron triggers, Queues and Durable Objects',
  },
  {
    name: 'BullMQ',
    pkg: '@pikku/queue-bullmq',
    kind: 'Queue',
    href: '/docs/runtimes/bullmq',
    runs: 'Queue workers on Redis',
  },
  {
    name: 'pg-boss',
    pkg: '@pikku/queue-pg-boss',
    kind: 'Queue',
    href: '/docs/runtimes/pg-boss',
    runs: 'Queue workers on PostgreSQL',
  },
  {
    name: 'MCP server',
    pkg: '@pikku/modelcontextprotocol',
    kind: 'AI agents',
    href: '/docs/runtimes/mcp-server',
    runs: 'Tools, resources and prompts for AI agents',
  },
];
