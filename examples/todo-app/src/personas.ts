import { definePersonas } from '#pikku/scopes/pikku-personas.gen.js'

// #region personas
// The people the app's scenarios act as. A scenario signs in as Alice over the real transport, so what it checks is
// what she would see.
definePersonas({
  alice: {
    name: 'Alice',
    jobTitle: 'Leads a small design team',
    goals: ["Clear the week's to-dos before Friday"],
    account: {},
  },
})
// #endregion personas
