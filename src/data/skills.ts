/**
 * The skills sidebar, in reading order. Each name is a page at /docs/skills/NAME, labelled
 * `pikku-NAME` in the sidebar and reachable at /docs/skills/pikku-NAME through a redirect.
 */
export const skillNames = [
  'project-setup',
  'functions',
  'http',
  'channel',
  'queue',
  'queue-bullmq',
  'queue-pg-boss',
  'scheduler',
  'mcp',
  'cli',
  'auth-middleware',
  'kysely',
  'yarn-workspace',
  'express',
  'fastify',
  'uws',
  'ws',
  'aws-lambda',
  'cloudflare',
] as const;

export type SkillName = (typeof skillNames)[number];

export const skillLabel = (name: SkillName): string => `pikku-${name}`;
