import { replyBody } from '../channel-inbound.service.js';
import { signatureMatches, twilioSignature } from './twilio-signature.js';

describe('twilioSignature', () => {
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';

  it("matches Twilio's published examples", () => {
    // Twilio's "Validating requests" documentation and twilio-node's webhook tests.
    expect(
      twilioSignature('12345', url, {
        CallSid: 'CA1234567890ABCDE',
        Caller: '+12349013030',
        Digits: '1234',
        From: '+12349013030',
        To: '+18005551212',
      }),
    ).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
    expect(
      twilioSignature('12345', url, {
        CallSid: 'CA1234567890ABCDE',
        Caller: '+14158675309',
        Digits: '1234',
        From: '+14158675309',
        To: '+18005551212',
      }),
    ).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
  });

  it('sorts parameter names and repeats a multi-valued name once per (sorted) value', () => {
    const token = 'secret';
    expect(twilioSignature(token, url, { b: '2', a: '1' })).toBe(twilioSignature(token, url, { a: '1', b: '2' }));
    expect(twilioSignature(token, url, { m: ['z', 'y'] })).toBe(twilioSignature(token, `${url}mymz`, {}));
  });

  it('compares in constant time and rejects missing or different signatures', () => {
    expect(signatureMatches('abc=', 'abc=')).toBe(true);
    expect(signatureMatches('abc=', 'abd=')).toBe(false);
    expect(signatureMatches('abc=', 'abc')).toBe(false);
    expect(signatureMatches('abc=', undefined)).toBe(false);
  });
});

describe('replyBody', () => {
  it('appends up to three cards as "• title url" lines', () => {
    const card = (title: string, url?: string) => ({ title, json_data: { entity: url ? { url } : {} } });
    expect(replyBody('Here you go:', [card('A', 'https://x/a'), card('B'), card('C'), card('D')])).toBe(
      'Here you go:\n\n• A https://x/a\n• B\n• C',
    );
    expect(replyBody('  Just text ', [])).toBe('Just text');
    expect(replyBody('', undefined)).toBe('');
  });
});
