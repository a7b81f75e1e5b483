/// The icon `GET /favicon.ico` answers: a 16×16 ICO (one 32-bit BMP image, the format of
/// Microsoft's ICONDIR/BITMAPINFOHEADER) drawn here, a dark blue card with a light stripe, so
/// that a browser tab of the local service has an icon as AusweisApp's has.
enum FavIcon {
    static let size = 16

    static let bytes: [UInt8] = {
        let pixels = size * size * 4
        let mask = size * 4  // 1 bit per pixel, rows padded to 32 bits
        let imageSize = 40 + pixels + mask
        var out: [UInt8] = []
        func le16(_ v: Int) { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) {
            le16(v & 0xFFFF)
            le16(v >> 16 & 0xFFFF)
        }
        // ICONDIR: reserved, type 1 (icon), one image.
        le16(0)
        le16(1)
        le16(1)
        // ICONDIRENTRY: width, height, no palette, reserved, 1 plane, 32 bits, size, offset.
        out += [UInt8(size), UInt8(size), 0, 0]
        le16(1)
        le16(32)
        le32(imageSize)
        le32(6 + 16)
        // BITMAPINFOHEADER: the height counts the image and its mask.
        le32(40)
        le32(size)
        le32(size * 2)
        le16(1)
        le16(32)
        le32(0)
        le32(pixels + mask)
        le32(0)
        le32(0)
        le32(0)
        le32(0)
        // Pixels, bottom row first, BGRA: a dark blue card with a light stripe across it.
        for row in 0..<size {
            for column in 0..<size {
                let edge = row == 0 || row == size - 1 || column == 0 || column == size - 1
                let stripe = (9...10).contains(row) && (2...13).contains(column)
                if edge {
                    out += [0, 0, 0, 0]
                } else if stripe {
                    out += [0xF0, 0xE8, 0xE0, 0xFF]
                } else {
                    out += [0x80, 0x40, 0x10, 0xFF]
                }
            }
        }
        // The AND mask: all 0 (the alpha channel decides).
        out += [UInt8](repeating: 0, count: mask)
        return out
    }()
}
