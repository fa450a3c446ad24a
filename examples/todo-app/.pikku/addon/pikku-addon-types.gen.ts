/**
 * Stand-in for .pikku/addon/pikku-addon-types.gen.ts in an application: the install side, as
 * packages/cli/src/functions/wirings/functions/serialize-addon-types.ts `serializeAddonInstallTypes` writes it
 * (cli 0.12.113). Identical to the generated file.
 */

export { wireAddon, wireRemoteAddon } from '@pikku/core/addon'
