/** The months as the site's one locale (`en`) names them. */
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * A post's date as the blog shows it, "February 26, 2026" (UTC): what `Intl.DateTimeFormat('en', { day: 'numeric',
 * month: 'long', year: 'numeric', timeZone: 'UTC' })` gives, without building one. In the browser, the first
 * `Intl.DateTimeFormat` loads the locale's calendar data, and Docusaurus built it while hydrating every post: one of the
 * longest tasks of a post page. tests/unit/dates.test.mjs checks it against Intl for every post.
 */
export function formatPostDate(date: string | Date): string {
  const d = new Date(date);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}
