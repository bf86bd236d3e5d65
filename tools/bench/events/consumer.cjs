// The bench's consumer: matching-service's queue worked by the kit's EventConsumer.
require('./register.cjs');
require('./route.ts').routeProfileUpdatesToMatching();
require('./consumer.ts');
