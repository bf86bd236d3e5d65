// The bench's producer: profile-service itself (apps/profile-service/src/main.ts, so
// `producer.cjs migrate` migrates), with profile.updated routed to matching-service now.
require('./register.cjs');
require('./route.ts').routeProfileUpdatesToMatching();
require('../../../apps/profile-service/src/main.ts');
