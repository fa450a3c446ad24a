import { pikkuConfig } from '#pikku/setup'

export const createConfig = pikkuConfig(async () => ({
  port: Number(process.env.PORT ?? 3000),
}))
