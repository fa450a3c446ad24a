// Typed stand-in for @pikku/fetch 0.12.9 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/client-fetch/package.json (exports: "." with import/require builds)
//   packages/client-fetch/src/index.ts
//   packages/client-fetch/src/core-pikku-fetch.ts
//   packages/client-fetch/src/pikku-fetch-error.ts
// Request/Response/Blob/File/BufferSource are the DOM lib's, as in the source (the app's tsconfig
// includes the DOM lib).

declare module '@pikku/fetch' {
  type AuthHeaders = {
    jwt?: string
    apiKey?: string
  }

  export type HTTPMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'HEAD' | 'PUT'

  export type CorePikkuFetchOptions = {
    /** Turn date-like strings in responses into `Date` objects. */
    transformDate?: boolean
    /** Base URL every request path is appended to. */
    serverUrl?: string
    authHeaders?: AuthHeaders
  } & Pick<RequestInit, 'cache' | 'credentials' | 'mode'>

  /** The base class the generated `pikku-fetch.gen.ts` client extends. */
  export class CorePikkuFetch {
    private options
    private authHeaders
    private extraHeaders
    constructor(options?: CorePikkuFetchOptions)
    private getHeaders
    setHeader(name: string, value: string | null): void
    setServerUrl(serverUrl: string): void
    /** The base server URL without trailing slash, or undefined if not set. */
    getServerUrl(): string | undefined
    setAuthorizationJWT(jwt: string | null): void
    setAPIKey(apiKey: string | null): void
    post(uri: string, data: any, options?: RequestInit): Promise<any>
    get(uri: string, data: any, options?: RequestInit): Promise<any>
    patch(uri: string, data: any, options?: RequestInit): Promise<any>
    head(uri: string, data: any, options?: RequestInit): Promise<any>
    /** Uploads a file to a URL returned by the backend's `getUploadURL`. */
    uploadFile(
      uploadInfo: {
        uploadUrl: string
        assetKey: string
        uploadHeaders?: Record<string, string>
        uploadMethod?: 'PUT' | 'POST'
      },
      body: Blob | File | BufferSource | ReadableStream,
      contentType?: string,
    ): Promise<{ assetKey: string; response: Response }>
    /** Sends the request and decodes the body; throws PikkuFetchError for status >= 400. */
    api(uri: string, method: HTTPMethod, data: any, options?: RequestInit): Promise<any>
    /** Opens an SSE stream and calls `handler` for each JSON event. */
    subscribeToSSE<T = unknown>(
      path: string,
      handler: (event: T) => void,
      onError?: (err: unknown) => void,
    ): { close: () => void }
    /** Raw request; `method` is typed `any` in the source. */
    fetch(uri: string, method: any, data: any, options?: RequestInit): Promise<Response>
    private verifyServerUrlSet
    private transformDates
  }

  /**
   * Thrown by CorePikkuFetch for any non-2xx response. `name` and `message` come from
   * the server's `{ name, message }` error body when there is one; `status` is the HTTP
   * status and `response` the original Response.
   */
  export class PikkuFetchError extends Error {
    readonly status: number
    readonly statusText: string
    readonly response: Response
    readonly body: unknown
    constructor(response: Response, body: unknown, message: string, name: string)
    /** Builds a PikkuFetchError from a non-2xx Response (reads a clone of the body). */
    static fromResponse(response: Response): Promise<PikkuFetchError>
  }

  export {}
}
