import { describe, expect, it } from 'vitest';
import { emptyParameters, fillPlaceholders, parametersComplete, placeholderCount, renderTemplate, templateSendData } from './templates';
import { TEMPLATE } from './testFixtures';

describe('filling a template', () => {
  it('asks for one field per placeholder of the header, the body and each button link', () => {
    expect(placeholderCount('Hello {{1}}, see you {{2}}')).toBe(2);
    expect(placeholderCount(undefined)).toBe(0);
    expect(emptyParameters(TEMPLATE)).toEqual({ header: [''], body: ['', ''], buttons: [''] });
  });

  it('the preview fills as the agent types and shows what is still missing', () => {
    const parameters = { header: ['#42'], body: ['Ana', ''], buttons: ['42'] };
    expect(renderTemplate(TEMPLATE, parameters)).toEqual({
      name: 'order_update',
      language: 'en',
      header: 'Order #42',
      body: 'Hello Ana, your order ships on {{2}}.',
      footer: 'Agora shop',
      buttons: [
        { type: 'URL', text: 'Track', url: 'https://shop.example/track/42' },
        { type: 'QUICK_REPLY', text: 'Thanks' },
      ],
    });
    expect(parametersComplete(parameters)).toBe(false);
    expect(parametersComplete({ ...parameters, body: ['Ana', 'Monday'] })).toBe(true);
  });

  it('keeps the placeholder for a blank value', () => {
    expect(fillPlaceholders('{{1}} and {{2}}', ['one', '  '])).toBe('one and {{2}}');
  });

  it('sends the name, the language and the trimmed parameters for the server to fill', () => {
    expect(templateSendData(TEMPLATE, { header: [' #42 '], body: ['Ana', 'Monday'], buttons: ['42'] })).toEqual({
      name: 'order_update',
      language: 'en',
      parameters: { header: ['#42'], body: ['Ana', 'Monday'], buttons: ['42'] },
    });
  });
});
