/** The remark plugin: see remark-app-code.mjs. */
declare const remarkAppCode: (options?: { appDir?: string }) => (tree: unknown, file?: { path?: string }) => void;
export default remarkAppCode;
export declare const APP_DIR: string;
export declare function parseMeta(meta?: string | null): Record<string, string>;
export declare function readAppCode(file: string, region?: string, appDir?: string): string;
export declare function visibleCode(code: string): string;
export declare const TS_LANGS: Set<string>;
