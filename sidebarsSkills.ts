import type { SidebarsConfig } from '@docusaurus/plugin-content-docs';
import { skillLabel, skillNames } from './src/data/skills';

/**
 * The skills sidebar: one category whose page is the landing page, holding one recipe per skill,
 * labelled with its pikku- name. The landing page's card list then shows the recipes only.
 */
const sidebars = {
  skills: [
    {
      type: 'category',
      label: 'Skills',
      link: { type: 'doc', id: 'skills/index' },
      collapsible: false,
      items: skillNames.map((name) => ({ type: 'doc' as const, id: `skills/${name}`, label: skillLabel(name) })),
    },
  ],
} satisfies SidebarsConfig;

export default sidebars;
