/**
 * The route-change progress bar (nprogress, started by the classic theme after 200 ms) is decoration: its default
 * markup gives it `role="bar"`, which is no ARIA role, so assistive technology gets an invalid role while a slow
 * route loads. The same bar, hidden from assistive technology instead.
 */
import nprogress from 'nprogress';

nprogress.configure({
  template: '<div class="bar" aria-hidden="true"><div class="peg"></div></div>',
  // nprogress finds the bar it animates by this selector (by default, the invalid role).
  barSelector: '.bar',
});

export {};
