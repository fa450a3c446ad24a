// Helpers for the workflow, agent, trigger and gateway tests: the to-do app started with a `jwt` service (so that
// Bearer tokens become sessions, as src/services.auth.skill.ts wires it), tokens for test users, and an RPC handle
// for calling the workflow service directly, as a function's own `rpc` would.
import { rpcService } from '@pikku/core/rpc'
import { startExpressApp, type RunningApp } from './app.js'
import { createTestJWT } from './http.js'

export type Role = 'member' | 'admin'

export interface SessionApp extends RunningApp {
  /** A Bearer token for a user of the app. */
  token: (userId: string, role?: Role) => Promise<string>
  /** fetch on the app with the user's Bearer token and a JSON body. */
  call: (userId: string, method: string, path: string, body?: unknown) => Promise<Response>
}

export const startSessionApp = async (extra: Record<string, unknown> = {}): Promise<SessionApp> => {
  process.env.JWT_SECRET ??= 'behaviour-suite-secret-of-at-least-32-chars'
  const jwt = await createTestJWT()
  const app = await startExpressApp({ jwt, ...extra } as Parameters<typeof startExpressApp>[0])
  const token = (userId: string, role: Role = 'member') => jwt.encode({ value: 1, unit: 'hour' }, { userId, role })
  const call = async (userId: string, method: string, path: string, body?: unknown) =>
    fetch(`${app.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await token(userId)}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  return { ...app, token, call }
}

/** The `rpc` a function of the app receives, here for a caller with the given user id (or none). */
export const rpcFor = (services: object, pikkuUserId?: string) =>
  rpcService.getContextRPCService(services as never, pikkuUserId ? { pikkuUserId } : {}, false) as any
