// Typed stand-in for @pikku/aws-services 0.12.12 (not on the registry reachable here).
// Models, at pikkujs/pikku HEAD 88b118a68:
//   packages/services/aws-services/package.json (exports: ".", "./s3", "./secrets")
//   packages/services/aws-services/src/index.ts
//   packages/services/aws-services/src/aws-config.ts
//   packages/services/aws-services/src/aws-secrets.ts
//   packages/services/aws-services/src/s3-content.ts
//   packages/services/aws-services/src/sqs-queue-service.ts
// The AWS SDK clients are private members, so no AWS SDK type appears in the public API.

declare module '@pikku/aws-services/secrets' {
  import type { SecretService, SecretValues } from '@pikku/core/services'
  import type { SecretValue } from '@pikku/core/classification'

  /** Region settings (declared in aws-config.ts; this subpath does not export it). */
  interface AWSConfig {
    awsRegion: string
  }

  /** SecretService over AWS Secrets Manager (read-only: setSecret/deleteSecret are not supported). */
  export class AWSSecrets implements SecretService {
    readonly config: AWSConfig
    private readonly client
    constructor(config: AWSConfig)
    getSecret<T = string>(SecretId: string): Promise<SecretValue<T>>
    hasSecret(SecretId: string): Promise<boolean>
    setSecret(_key: string, _value: unknown): Promise<void>
    deleteSecret(_key: string): Promise<void>
    getSecrets<T extends Record<string, unknown> = Record<string, unknown>>(
      keys: (keyof T & string)[],
    ): Promise<Partial<SecretValues<T>>>
  }

  export {}
}

declare module '@pikku/aws-services/s3' {
  import type {
    BucketKeyArgs,
    ContentService,
    CopyFileArgs,
    GetUploadURLArgs,
    Logger,
    SignContentKeyArgs,
    SignURLArgs,
    UploadURLResult,
    WriteFileArgs,
  } from '@pikku/core/services'

  export interface S3ContentConfig {
    /** The real S3 bucket; the ContentService's logical buckets become key prefixes inside it. */
    bucketName: string
    region: string
    endpoint?: string
  }

  /** ContentService on S3, with CloudFront-signed read URLs and presigned uploads. */
  export class S3Content implements ContentService {
    private config
    private logger
    private signConfig
    private s3
    constructor(config: S3ContentConfig, logger: Logger, signConfig: { keyPairId: string; privateKey: string })
    private join
    signURL(args: SignURLArgs): Promise<string>
    signContentKey(args: SignContentKeyArgs): Promise<string>
    getUploadURL(args: GetUploadURLArgs): Promise<UploadURLResult>
    readFile(args: BucketKeyArgs): Promise<ReadableStream | NodeJS.ReadableStream>
    writeFile(args: WriteFileArgs): Promise<boolean>
    copyFile(args: CopyFileArgs): Promise<boolean>
    readFileAsBuffer(args: BucketKeyArgs): Promise<Buffer>
    deleteFile(args: BucketKeyArgs): Promise<boolean>
  }

  export {}
}

declare module '@pikku/aws-services' {
  import type { QueueJob, QueueService, JobOptions } from '@pikku/core/queue'

  export interface AWSConfig {
    awsRegion: string
  }
  export { AWSSecrets } from '@pikku/aws-services/secrets'
  export { S3Content, type S3ContentConfig } from '@pikku/aws-services/s3'

  /** Constructor options (the interface is not exported by the package index). */
  interface SQSQueueServiceConfig {
    /** AWS region of the SQS client. */
    region: string
    /** Prepended to the queue name to form its URL, e.g. 'https://sqs.<region>.amazonaws.com/<account>/'. */
    queueUrlPrefix: string
    /** Custom endpoint, e.g. LocalStack. */
    endpoint?: string
  }

  /**
   * QueueService producer for standard SQS queues. Fire-and-forget: no results and no
   * status queries; a delay may not exceed 900 seconds.
   */
  export class SQSQueueService implements QueueService {
    private readonly config
    readonly supportsResults = false
    private readonly client
    private readonly queueUrls
    constructor(config: SQSQueueServiceConfig)
    private getQueueUrl
    /** Sends `data` as the JSON message body; resolves to the SQS message id. */
    add<T>(queueName: string, data: T, options?: JobOptions): Promise<string>
    /** Not supported by SQS: always throws. */
    getJob<T, R>(queueName: string, jobId: string): Promise<QueueJob<T, R> | null>
  }

  export {}
}
