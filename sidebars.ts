import type { SidebarsConfig } from '@docusaurus/plugin-content-docs';

/** One entry of a sidebar's item list. */
type SidebarItem = Extract<SidebarsConfig[string], unknown[]>[number];
import skillsSidebars from './sidebarsSkills';
import cliErrors from './src/data/cli-errors.json';

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

/** The CLI error reference: its index, then one collapsed category per area with a page per code. */
const errorAreas = [...new Set(cliErrors.codes.map((c) => c.area))];
const cliErrorReference: SidebarItem = {
  type: 'category',
  label: 'CLI error codes',
  link: { type: 'doc', id: 'pikku-cli/errors/index' },
  collapsed: true,
  items: errorAreas.map((area): SidebarItem => ({
    type: 'category',
    label: area,
    collapsed: true,
    items: cliErrors.codes
      .filter((c) => c.area === area)
      .map((c) => `pikku-cli/errors/${c.code.toLowerCase()}`)
      .sort(),
  })),
};

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
      'secrets',
      'variables',
      'credentials',
      'versioning',
      'pikku-cli',
    ]),
    section('HTTP', 'http', ['router', 'cors', 'fetch-client', 'openapi', 'server-sent-events']),
    section('Channels', 'channels', ['channel-route', 'websocket-client']),
    section('Queues', 'queue', ['client', 'examples']),
    'scheduled-tasks',
    section('RPCs', 'rpcs', ['internal', 'external', 'remote', 'react-query']),
    section('MCP', 'mcp', ['tools', 'resources', 'prompts']),
    section('Workflows', 'workflows', ['steps', 'graph', 'runs', 'persistence']),
    section('AI agents', 'ai-agents', ['tools', 'memory-and-output', 'approval-and-middleware', 'providers']),
    { type: 'doc', id: 'triggers/index', label: 'Triggers' },
    { type: 'doc', id: 'gateways/index', label: 'Gateways' },
    section('Addons', 'addons', ['authoring', 'consuming']),
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
    { type: 'doc', id: 'deploy/index', label: 'Deploy' },
    { type: 'doc', id: 'storage/index', label: 'Storage back-ends' },
    { type: 'doc', id: 'console/index', label: 'Console and pikku dev' },
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
    cliErrorReference,
    group('Comparisons', 'comparison', ['hono', 'nestjs']),
  ],
  ...skillsSidebars,
} satisfies SidebarsConfig;

export default sidebars;
