// The entry file of the `todos` command-line program: runs one command in this process and exits.
import '#pikku/pikku-bootstrap.gen.js'
import { CLIError, executeCLI } from '@pikku/core/cli'
import { createConfig } from './config.js'
import { createSingletonServices } from './services.js'

try {
  await executeCLI({
    programName: 'todos',
    // Required: executeCLI throws without it. Everything after `node cli.ts`.
    args: process.argv.slice(2),
    createConfig,
    createSingletonServices,
  })
} catch (error) {
  // executeCLI has already printed the errors or the help for most CLIErrors (not "program not found"); each
  // carries the exit code to use.
  if (error instanceof CLIError) process.exit(error.exitCode)
  throw error
}
