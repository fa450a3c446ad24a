// An entry file that runs the to-do API with the assistant: the same services as src/start.ts, plus four for the
// agent (runner, storage, run state and meta service). They are passed to createSingletonServices as existing
// services, so the app keeps one factory.
import '#pikku/pikku-bootstrap.gen.js'
import { PikkuExpressServer } from '@pikku/express'
import { InMemoryAgentRunStateService } from '@pikku/core/services'
import { LocalMetaService } from '@pikku/core/services/local-meta'
import { VercelAgentRunner } from '@pikku/ai-vercel'
import { createOpenAI } from '@ai-sdk/openai'
import { createConfig } from '../config.js'
import { createSingletonServices } from '../services.js'
import { InMemoryAgentStorage } from './in-memory-agent-storage.js'

// #region services
const config = await createConfig()

// 'openai/gpt-4o-mini' is sent to the provider registered under 'openai', as model 'gpt-4o-mini'.
const agentRunner = new VercelAgentRunner({
  openai: createOpenAI({ apiKey: process.env.OPENAI_API_KEY }),
})

const singletonServices = await createSingletonServices(config, {
  agentRunner,
  agentStorage: new InMemoryAgentStorage(),
  agentRunState: new InMemoryAgentRunStateService(),
  // Tool descriptions are verbose metadata, read from the generated .pikku folder through this service. Without
  // it the model is offered each tool under its bare name.
  metaService: new LocalMetaService(new URL('../../.pikku', import.meta.url).pathname),
})
// #endregion services

const server = new PikkuExpressServer({ ...config, hostname: 'localhost' }, singletonServices.logger)
server.enableExitOnSigInt()
await server.init()
await server.start()
