// remark-lint over the site's MDX (docs, why, blog, MDX pages): `npm run lint:md`.
// Maintained rules do the generic work: link targets and headings (remark-validate-links), a language on every
// fence (remark-lint-fenced-code-flag) and front matter schemas (remark-lint-frontmatter-schema). The rules that
// only make sense here live in scripts/lib/remark-pikku.mjs, with tests in tests/unit/lint-rules.test.mjs.
import remarkDirective from 'remark-directive';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkLint from 'remark-lint';
import remarkLintFencedCodeFlag from 'remark-lint-fenced-code-flag';
import remarkLintFrontmatterSchema from 'remark-lint-frontmatter-schema';
import remarkMdx from 'remark-mdx';
import remarkValidateLinks from 'remark-validate-links';
import remarkPikku from './scripts/lib/remark-pikku.mjs';

export default {
  settings: { bullet: '-' },
  plugins: [
    remarkFrontmatter,
    remarkMdx,
    remarkGfm,
    remarkDirective,
    remarkLint,
    [remarkLintFencedCodeFlag, [true]],
    // Links to MDX files and their headings are checked here; route links (/docs/...), which point at no file, are
    // left to the Docusaurus build, which checks them against the real routes.
    [remarkValidateLinks, { repository: false, skipPathPatterns: [String.raw`^(?!.*\.mdx?(#|$))`] }],
    [
      remarkLintFrontmatterSchema,
      {
        schemas: {
          // `docs/.*/` is the lint test's fixture folder (tests/unit/lint.test.mjs): hidden, so that no glob of the
          // other checks, which may run meanwhile (scripts/test.mjs), finds its broken pages.
          './scripts/lint/docs.schema.yaml': ['docs/**/*.mdx', 'why/**/*.mdx', 'docs/.*/*.mdx'],
          './scripts/lint/blog.schema.yaml': ['blog/*.mdx'],
        },
      },
    ],
    remarkPikku,
  ],
};
