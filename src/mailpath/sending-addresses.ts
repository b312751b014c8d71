/**
 * The addresses the service sends its test messages from, per its help pages
 * (/work/shared/service-notes.md, "SMTP monitors"). The one place they are written: `monsync test`
 * prints them for allow-lists, docs/test.md quotes them, and a test holds the two together. When the
 * service publishes new ones, change them here.
 */
export const SERVICE_SENDING_ADDRESSES = {
  ipv4: ['71.5.105.197', '69.164.206.119'],
  ipv6: ['2604:180:1:2da::bce8', '2600:3c00::f03c:91ff:fe26:654e'],
} as const;

/** All of them, IPv4 first: as printed. */
export const SENDING_ADDRESS_LIST: readonly string[] = [...SERVICE_SENDING_ADDRESSES.ipv4, ...SERVICE_SENDING_ADDRESSES.ipv6];
