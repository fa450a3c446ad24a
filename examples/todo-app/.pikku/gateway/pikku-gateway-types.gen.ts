/**
 * Stand-in for .pikku/gateway/pikku-gateway-types.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/gateway/serialize-gateway-types.ts (cli 0.12.113), app variant, with this
 * app's SingletonServices filled in. One difference, on purpose: `GatewayWiring` lets `adapter` be a
 * PikkuGatewayAdapterFactory, which receives the app's services; the generated type is core's `CoreGateway`, whose
 * factory receives core's services. `func` is as loose as in the generated type (any function config).
 */
import { wireGateway as wireGatewayCore } from '@pikku/core/gateway'
import type {
  CoreGateway,
  GatewayAdapter,
  GatewayInboundMessage,
  GatewayOutboundMessage,
  GatewayTransportType,
  WebhookVerificationResult,
} from '@pikku/core/gateway'
import type { PikkuFunctionConfig } from '../function/pikku-function-types.gen.js'
import type { SingletonServices } from '../../src/application-types.js'

export type { GatewayAdapter, GatewayInboundMessage, GatewayOutboundMessage, GatewayTransportType, WebhookVerificationResult }

/** Builds a GatewayAdapter from the app's own singleton services. */
export type PikkuGatewayAdapterFactory = (services: SingletonServices) => GatewayAdapter | Promise<GatewayAdapter>

/** A gateway: its name, transport, adapter and the function each inbound message runs. */
export type GatewayWiring = Omit<CoreGateway, 'adapter' | 'func'> & {
  adapter: GatewayAdapter | PikkuGatewayAdapterFactory
  func: PikkuFunctionConfig<GatewayInboundMessage, any, any, any, any, any>
}

export const wireGateway = (gateway: GatewayWiring): void => {
  wireGatewayCore(gateway as never)
}
