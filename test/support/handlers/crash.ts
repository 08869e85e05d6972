export { crash as handler } from './gateway-probe.ts';
