// Typed stand-in for @pikku/websocket 0.12.4 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/client-websocket/package.json (exports: "." with import/require builds)
//   packages/client-websocket/src/index.ts
//   packages/client-websocket/src/core-pikku-websocket.ts
//   packages/client-websocket/src/core-pikku-route-handler.ts
// The socket is the DOM lib's WebSocket, as in the source (the app's tsconfig includes the DOM lib).

declare module '@pikku/websocket' {
  /** Per-route helper returned by CorePikkuWebsocket.getRoute(). */
  export class CorePikkuRouteHandler {
    private route
    private sendData
    private subscriptions
    constructor(route: string, sendData: (data: string) => void)
    subscribe(method: string | number | symbol, callback: (data: any) => void): void
    unsubscribe(method?: string | number | symbol, callback?: (data: any) => void): void
    send(method: string | number | symbol, data: any): void
    /** @ignore internal: called when a message for this route arrives. */
    _handleMessage(method: string | number | symbol, data: any): void
  }

  /** The base class the generated `pikku-websocket.gen.ts` client extends. */
  export class CorePikkuWebsocket {
    protected ws: WebSocket
    private routes
    private subscriptions
    private binarySubscriptions
    /** @param ws - an already constructed WebSocket. */
    constructor(ws: WebSocket)
    getRoute(route: string | symbol | number): CorePikkuRouteHandler
    send(data: unknown): void
    sendBinary(data: ArrayBuffer | Uint8Array<ArrayBuffer>): void
    onBinaryMessage(callback: (data: ArrayBuffer) => void): void
    offBinaryMessage(callback?: (data: ArrayBuffer) => void): void
    onmessage: ((this: WebSocket, ev: MessageEvent) => any) | null
    subscribe(callback: (data: any) => void): void
    unsubscribe(callback?: (data: any) => void): void
    private handleMessage
  }

  export {}
}
