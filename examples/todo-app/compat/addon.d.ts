// '@pikku/core/addon' (new in 0.12.85): wireAddon and wireRemoteAddon moved here from '@pikku/core/rpc'.
export { wireAddon, wireRemoteAddon } from '../../../node_modules/@pikku/core/dist/wirings/rpc/index.js'
