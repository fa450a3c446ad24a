import type { SidebarsConfig } from '@docusaurus/plugin-content-docs';

/** One entry of a sidebar's item list. */
type SidebarItem = Extract<SidebarsConfig[string], unknown[]>[number];
import skillsSidebars from './sidebarsSkills';

/** A category whose own page is the section's index.mdx, listing the given pages in order. */
const section = (label: string, dir: string, pages: string[]): SidebarItem => ({
  type: 'category',
  label,
  link: { type: 'doc', id: `${dir}/index` },
  items: pages.map((page) => `${dir}/${page}`),
});

/** A category without a page of its own. */
const group = (label: string, dir: string, pages: string[]): SidebarItem => ({
  type: 'category',
  label,
  items: pages.map((page) => `${dir}/${page}`),
});

/** The docs sidebar reads as a learning path: start, learn the core, wire it, run it, look things up. */
const sidebars = {
  docs: [
    { type: 'doc', id: 'index', label: 'Introduction' },
    { type: 'link', label: 'Manual setup', href: '/manual-setup' },
    'navigation',
    section('Philosophy', 'philosophy', [
      'architecture',
      'types-and-schemas',
      'typed-clients',
      'tree-shaking',
      'limitations',
      'vision',
      'personal',
    ]),
    section('Core features', 'core-features', [
      'functions',
      'services',
      'user-sessions',
      'permission-guards',
      'middleware',
      'errors',
      'testing',
      'pikku-cli',
    ]),
    section('HTTP', 'http', ['router', 'cors', 'fetch-client', 'openapi', 'server-sent-events']),
    section('Channels', 'channels', ['channel-route', 'websocket-client']),
    section('Queues', 'queue', ['client', 'examples']),
    'scheduled-tasks',
    section('RPCs', 'rpcs', ['internal', 'external']),
    section('MCP', 'mcp', ['tools', 'resources', 'prompts']),
    group('Authentication', 'middleware', ['auth-jwt', 'auth-cookie', 'auth-apikey']),
    section('Runtimes', 'runtimes', [
      'express-middleware',
      'fastify-plugin',
      'uws-handler',
      'ws-handler',
      'nextjs-app',
      'aws-lambda',
      'cloudflare-functions',
      'bullmq',
      'pg-boss',
      'mcp-server',
    ]),
    group('Custom runtimes', 'custom-runtimes', [
      'http',
      'websocket-handler',
      'queue-runtime',
      'scheduler-handler',
      'mcp-server',
    ]),
    group('Service APIs', 'api', [
      'logger',
      'variables-service',
      'secret-service',
      'jwt-service',
      'schema-service',
      'user-session-service',
      'event-hub',
      'content-service',
      'task-scheduler',
      'exception',
    ]),
    'cli',
    group('Comparisons', 'comparison', ['hono', 'nestjs']),
  ],
  ...skillsSidebars,
} satisfies SidebarsConfig;

export default sidebars;
