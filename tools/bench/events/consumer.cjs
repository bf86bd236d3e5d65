// The bench's consumer: matching-service's queue worked by the kit's EventConsumer.
require('./register.cjs');
require('./consumer.ts');
