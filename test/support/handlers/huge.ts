export { huge as handler } from './gateway-probe.ts';
