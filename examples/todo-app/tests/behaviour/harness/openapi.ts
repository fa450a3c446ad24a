// The OpenAPI generator of @pikku/inspector 0.12.63 (what `pikku all` and `pikku openapi` call when `openAPI` is set),
// run on the app's own generated route, function and schema metadata. The module is not among the package's exports,
// so it is imported from its file.
import { readdirSync, readFileSync } from 'node:fs'
import type { HTTPWiringsMeta } from '@pikku/core/http'
import type { FunctionsMeta } from '@pikku/core/services'
import { generateOpenAPISpec } from '../../../node_modules/@pikku/inspector/dist/utils/serialize-openapi-json.js'

export { generateOpenAPISpec }

const readGenerated = (path: string) => JSON.parse(readFileSync(new URL(`../../../.pikku/${path}`, import.meta.url), 'utf8'))

/** The app's generated function metadata. */
export const appFunctionsMeta = () => readGenerated('function/pikku-functions-meta.gen.json') as FunctionsMeta

/** The app's generated HTTP route metadata. */
export const appHTTPMeta = () => readGenerated('http/pikku-http-wirings-meta.gen.json') as HTTPWiringsMeta

/**
 * The document the generator writes for `httpMeta` (the app's own routes by default) and `functionsMeta` (the app's
 * own by default), with `additionalInfo` spread over a fixed title and version; and the errors it logged.
 */
export const openAPIDocumentOf = async (
  httpMeta?: HTTPWiringsMeta,
  additionalInfo: Record<string, unknown> = {},
  functionsMeta: FunctionsMeta = appFunctionsMeta(),
) => {
  const schemaDir = new URL('../../../.pikku/schemas/schemas/', import.meta.url)
  const schemas: Record<string, unknown> = {}
  for (const file of readdirSync(schemaDir)) {
    schemas[file.replace('.schema.json', '')] = JSON.parse(readFileSync(new URL(file, schemaDir), 'utf8'))
  }
  const logged: string[] = []
  const logger = { error: (message: string) => logged.push(message) } as unknown as Parameters<typeof generateOpenAPISpec>[0]
  const spec = await generateOpenAPISpec(
    logger,
    functionsMeta,
    httpMeta ?? appHTTPMeta(),
    schemas,
    { info: { title: 'Team to-do API', version: '1.0.0', description: 'probe' }, servers: [], ...additionalInfo },
  )
  return { spec, logged }
}
