// Typed stand-in for @pikku/react 0.12.7 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/frontend/react/package.json (exports: "." only; peer dependencies react and react-dom ^18 || ^19)
//   packages/frontend/react/src/index.ts
//   packages/frontend/react/src/create-pikku.ts
//   packages/frontend/react/src/pikku-provider.tsx
// NOT modelled (left out on purpose): the i18n brand types and locale store (i18n-types.ts, locale-store.ts) and the
// dev-only scenario actor sign-in (dev-actors.ts), which index.ts also exports; no page here uses them.

declare module '@pikku/react' {
  import type { JSX, ReactNode } from 'react'
  import type { CorePikkuFetch, CorePikkuFetchOptions } from '@pikku/fetch'

  /** What createPikku returns and PikkuProvider hands down: one fetch client, the RPC client sharing it, and optionally realtime. */
  export type PikkuInstance<Fetch extends CorePikkuFetch = CorePikkuFetch, RPC = any, Realtime = any> = {
    fetch: Fetch
    rpc: RPC
    /** Present when createPikku is called with a PikkuRealtime class. */
    realtime?: Realtime
  }

  export type CreatePikkuOptions = CorePikkuFetchOptions & {
    serverUrl: string
  }

  /** Builds the fetch client with `options` (minus serverUrl), points it at serverUrl, and gives it to a new RPC client. */
  export function createPikku<Fetch extends CorePikkuFetch, RPC extends { setPikkuFetch(fetch: Fetch): void }>(
    PikkuFetchClass: new (options?: CorePikkuFetchOptions) => Fetch,
    PikkuRPCClass: new () => RPC,
    options: CreatePikkuOptions,
  ): PikkuInstance<Fetch, RPC>
  export function createPikku<
    Fetch extends CorePikkuFetch,
    RPC extends { setPikkuFetch(fetch: Fetch): void },
    Realtime extends { setPikkuFetch(fetch: Fetch): void },
  >(
    PikkuFetchClass: new (options?: CorePikkuFetchOptions) => Fetch,
    PikkuRPCClass: new () => RPC,
    PikkuRealtimeClass: new () => Realtime,
    options: CreatePikkuOptions,
  ): PikkuInstance<Fetch, RPC> & { realtime: Realtime }

  export const PikkuProvider: ({ pikku, children }: { pikku: PikkuInstance; children: ReactNode }) => JSX.Element

  // Each hook throws `<hook name> must be used within PikkuProvider` outside the provider.
  export const usePikkuFetch: <Fetch extends CorePikkuFetch = CorePikkuFetch>() => Fetch
  export const usePikkuRPC: <RPC = any>() => RPC
  /** Also throws when the provider's instance has no realtime client. */
  export const usePikkuRealtime: <Realtime = any>() => Realtime

  type AgentRPC = {
    agent: {
      run: (agentName: string, input: any) => Promise<any>
      stream: (agentName: string, input: any) => Promise<any>
      approve: (agentName: string, input: any) => Promise<any>
    }
  }

  type WorkflowRPC = {
    startWorkflow: (workflowName: string, input: any) => Promise<any>
    runWorkflow: (workflowName: string, input: any) => Promise<any>
    workflowStatus: (workflowName: string, runId: string) => Promise<any>
  }

  export const usePikkuAgent: <RPC extends AgentRPC = AgentRPC, Name extends string = string>(
    agentName: Name,
  ) => {
    run: (input: Parameters<RPC['agent']['run']>[1]) => ReturnType<RPC['agent']['run']>
    stream: (input: Parameters<RPC['agent']['stream']>[1]) => ReturnType<RPC['agent']['stream']>
    approve: (input: Parameters<RPC['agent']['approve']>[1]) => ReturnType<RPC['agent']['approve']>
  }

  export const usePikkuWorkflow: <RPC extends WorkflowRPC = WorkflowRPC, Name extends string = string>(
    workflowName: Name,
  ) => {
    start: (input: Parameters<RPC['startWorkflow']>[1]) => ReturnType<RPC['startWorkflow']>
    run: (input: Parameters<RPC['runWorkflow']>[1]) => ReturnType<RPC['runWorkflow']>
    status: (runId: Parameters<RPC['workflowStatus']>[1]) => ReturnType<RPC['workflowStatus']>
  }

  export {}
}
