// '@pikku/core/utils' (new in 0.12.85), on the 0.12.84 root entry point.
export { getRelativeTimeOffsetFromNow, parseDurationString, pikkuServerLifecycle, stopSingletonServices } from '../../../node_modules/@pikku/core/dist/index.js'
export type { JSONValue, MakeRequired, PickRequired, RelativeTimeInput } from '../../../node_modules/@pikku/core/dist/index.js'
