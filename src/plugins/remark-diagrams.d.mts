/** The remark plugin: see remark-diagrams.mjs. */
export type DiagramThemes = { light: string; dark: string };
declare const remarkDiagrams: (options?: {
  themes?: DiagramThemes;
  dir?: string;
}) => (tree: unknown, file: { path?: string }) => Promise<void>;
export default remarkDiagrams;
export declare const DIAGRAMS_DIR: string;
export declare const MODES: readonly ['light', 'dark'];
export declare const DIAGRAM_THEMES: DiagramThemes;
export declare function diagramKey(source: string, themes?: DiagramThemes): string;
export declare function drawingPath(key: string, mode: string, dir?: string): string;
export declare function naturalSize(svg: string, width: number, height: number): string;
export declare function drawDiagrams(
  diagrams: { key: string; source: string; where: string }[],
  themes?: DiagramThemes,
): Promise<{ key: string; mode: string; svg: string }[]>;
