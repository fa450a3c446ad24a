// Environment variables set for the length of one test.

/** Runs `fn` with the given environment variables set (undefined: removed), and puts the old values back after. */
export const withEnv = async <T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> => {
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]))
  const apply = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
  apply(vars)
  try {
    return await fn()
  } finally {
    apply(saved)
  }
}
