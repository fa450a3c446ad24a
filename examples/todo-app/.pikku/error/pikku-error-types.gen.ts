// Stand-in for .pikku/error/pikku-error-types.gen.ts (packages/cli/src/functions/wirings/errors/serialize-error-types.ts).
export * from '@pikku/core/errors'
