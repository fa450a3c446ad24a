// Adds the `custom-iconLink` navbar item (GitHub, X, Discord icons with accessible names)
// to the theme's item types, keeping every original type.
// Unsafe swizzle (wrap): Docusaurus only supports ejecting this map, not wrapping it. Spreading the original
// keeps every item type the theme adds later; tests/unit/swizzles.test.mjs checks the map still exists.
import ComponentTypes from '@theme-original/NavbarItem/ComponentTypes';
import type ComponentTypesType from '@theme/NavbarItem/ComponentTypes';
import NavbarIconLink from '@site/src/components/NavbarIconLink';

export default {
  ...(ComponentTypes as typeof ComponentTypesType),
  'custom-iconLink': NavbarIconLink,
} satisfies typeof ComponentTypesType;
