import type { SidebarsConfig } from '@docusaurus/plugin-content-docs';
import { skillLabel, skillNames } from './src/data/skills';

/** The skills sidebar: the landing page, then one recipe per skill, labelled with its pikku- name. */
const sidebars = {
  skills: [
    { type: 'doc', id: 'skills/index', label: 'About skills' },
    ...skillNames.map((name) => ({ type: 'doc' as const, id: `skills/${name}`, label: skillLabel(name) })),
  ],
} satisfies SidebarsConfig;

export default sidebars;
