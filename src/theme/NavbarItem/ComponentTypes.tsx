// Adds the `custom-iconLink` navbar item (GitHub, X, Discord icons with accessible names)
// to the theme's item types, keeping every original type.
import ComponentTypes from '@theme-original/NavbarItem/ComponentTypes';
import NavbarIconLink from '@site/src/components/NavbarIconLink';

export default {
  ...ComponentTypes,
  'custom-iconLink': NavbarIconLink,
};
