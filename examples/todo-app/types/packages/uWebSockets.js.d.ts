// Typed stand-in for uWebSockets.js v20.69.0, the GitHub release @pikku/uws 0.12.11 depends on
// (packages/runtimes/uws-server/package.json at pikkujs/pikku HEAD 88b118a68). The library is published
// on GitHub, not on the npm registry, so it is not installed here. Only the names the to-do app's
// src/runtimes/uws.ts and the @pikku/uws-handler stand-in use are declared, with the shapes of the
// library's own index.d.ts; everything else is left out.

declare module 'uWebSockets.js' {
  export type RecognizedString =
    | string
    | ArrayBuffer
    | Uint8Array
    | Int8Array
    | Uint16Array
    | Int16Array
    | Uint32Array
    | Int32Array
    | Float32Array
    | Float64Array

  /** A listening socket; pass it to us_listen_socket_close to stop listening. */
  export interface us_listen_socket {}
  export interface us_socket_context_t {}

  export interface HttpResponse {
    writeStatus(status: RecognizedString): HttpResponse
    writeHeader(key: RecognizedString, value: RecognizedString): HttpResponse
    write(chunk: RecognizedString): boolean
    end(body?: RecognizedString, closeConnection?: boolean): HttpResponse
    endWithoutBody(reportedContentLength?: number, closeConnection?: boolean): HttpResponse
    onAborted(handler: () => void): HttpResponse
    onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): HttpResponse
    cork(cb: () => void): HttpResponse
    upgrade<UserData>(
      userData: UserData,
      secWebSocketKey: RecognizedString,
      secWebSocketProtocol: RecognizedString,
      secWebSocketExtensions: RecognizedString,
      context: us_socket_context_t,
    ): void
  }

  export interface HttpRequest {
    getHeader(lowerCaseKey: RecognizedString): string
    getMethod(): string
    getUrl(): string
    getQuery(): string | undefined
    forEach(cb: (key: string, value: string) => void): void
  }

  export interface WebSocket<UserData> {
    send(message: RecognizedString, isBinary?: boolean, compress?: boolean): number
    close(): void
    getUserData(): UserData
    subscribe(topic: RecognizedString): boolean
    unsubscribe(topic: RecognizedString): boolean
  }

  export interface WebSocketBehavior<UserData> {
    maxPayloadLength?: number
    idleTimeout?: number
    upgrade?: (res: HttpResponse, req: HttpRequest, context: us_socket_context_t) => void | Promise<void>
    open?: (ws: WebSocket<UserData>) => void | Promise<void>
    message?: (ws: WebSocket<UserData>, message: ArrayBuffer, isBinary: boolean) => void | Promise<void>
    close?: (ws: WebSocket<UserData>, code: number, message: ArrayBuffer) => void
  }

  export interface TemplatedApp {
    get(pattern: RecognizedString, handler: (res: HttpResponse, req: HttpRequest) => void | Promise<void>): TemplatedApp
    any(pattern: RecognizedString, handler: (res: HttpResponse, req: HttpRequest) => void | Promise<void>): TemplatedApp
    ws<UserData>(pattern: RecognizedString, behavior: WebSocketBehavior<UserData>): TemplatedApp
    listen(
      host: RecognizedString,
      port: number,
      cb: (listenSocket: us_listen_socket | false) => void | Promise<void>,
    ): TemplatedApp
    listen(port: number, cb: (listenSocket: us_listen_socket | false) => void | Promise<void>): TemplatedApp
  }

  export interface AppOptions {
    key_file_name?: RecognizedString
    cert_file_name?: RecognizedString
    passphrase?: RecognizedString
  }

  /** Creates an HTTP/WebSocket app without TLS. */
  export function App(options?: AppOptions): TemplatedApp
  /** Closes a listening socket returned to the listen callback. */
  export function us_listen_socket_close(listenSocket: us_listen_socket): void
}
