/**
 * Stand-in for .pikku/gateway/pikku-gateway-types.gen.ts. Modelled on
 * packages/cli/src/functions/wirings/gateway/serialize-gateway-types.ts (cli 0.12.113), app variant, with this
 * app's SingletonServices filled in. One difference, on purpose: `GatewayWiring` types `func` as one of the app's
 * function configs and `adapter` as an adapter or a PikkuGatewayAdapterFactory; the generated type is core's
 * `CoreGateway`, whose `func` is `CorePikkuFunctionConfig<any, any>` and whose factory receives core's services.
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
