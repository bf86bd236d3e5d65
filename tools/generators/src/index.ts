export { serviceGenerator, type ServiceGeneratorOptions } from './service/generator';
