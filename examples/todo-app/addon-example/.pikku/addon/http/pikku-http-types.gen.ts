/**
 * Stand-in for an addon's .pikku/addon/http/pikku-http-types.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/http/serialize-http-types.ts (cli 0.12.113), addon variant: an addon gets
 * `defineHTTPRoutes` only, never `wireHTTP` or `wireHTTPRoutes`. Typed here with core's route map.
 */
export { defineHTTPRoutes } from '@pikku/core/http'
