// PARTIAL typed stand-in for @pikku/better-auth 0.12.26 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/services/better-auth/package.json (exports: "." only; peer dependency better-auth ^1.6.0)
//   packages/services/better-auth/src/index.ts (the names below only)
//   packages/services/better-auth/src/define-auth.ts
// Only the declaration the CLI reads (pikkuBetterAuth, checked by PKU111, PKU581 and PKU582) is modelled; the
// session middleware, handlers, plugins and credential service of the index are left out, so importing one of
// them fails (TS2305) instead of becoming `any`. better-auth itself is the real package (a devDependency).

declare module '@pikku/better-auth' {
  import type { AuthInstance, CoreSingletonServices } from '@pikku/core/types'

  /** better-auth's instance as Pikku sees it: a request handler, its server API and its context. */
  export interface BetterAuthInstance extends AuthInstance {}

  /** Marks a factory as the project's better-auth declaration (a non-enumerable property). */
  export const PIKKU_BETTER_AUTH: unique symbol

  /** Builds the project's better-auth instance from its singleton services. */
  export type PikkuBetterAuthFactory<
    I extends BetterAuthInstance = BetterAuthInstance,
    S extends CoreSingletonServices = CoreSingletonServices,
  > = (services: S) => I | Promise<I>

  /** Registers the factory as the project's one better-auth declaration and returns it unchanged. */
  export const pikkuBetterAuth: <I extends BetterAuthInstance, S extends CoreSingletonServices = CoreSingletonServices>(
    factory: PikkuBetterAuthFactory<I, S>,
  ) => PikkuBetterAuthFactory<I, S>

  export {}
}
