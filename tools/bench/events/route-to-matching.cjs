// Preloaded (`node --require`) into the built profile-service the bench starts: profile.updated
// goes to matching-service's queue only, so the relay publishes each event once, to the one
// consumer the bench runs (the catalogue's other consumers are not started, and their queues
// would only fill). It patches the catalogue of the contracts the service was built with, which
// the build puts beside its main.js.
const path = require('node:path');

const { EVENT_CATALOGUE, SERVICES } = require(path.join(path.dirname(process.argv[1]), 'libs/contracts/src'));
EVENT_CATALOGUE['profile.updated'].consumers = [SERVICES.matching];
