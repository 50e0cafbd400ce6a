import { fileFormat, struct, u8, viewsOf, type SaveView } from '@savekit/core';

const pixel = struct({ width: u8, height: u8 });
type Pixel = { width: number; height: number };

const sizeTable: SaveView<Pixel> = {
  id: 'size',
  title: 'Size',
  available: (doc) => doc.width > 0,
  render: (doc) => ({
    kind: 'table',
    columns: ['width', 'height'],
    rows: [
      {
        cells: [String(doc.width), String(doc.height)],
        path: 'width',
        edits: [{ label: 'Widen', apply: (d) => ({ ...d, width: d.width + 1 }) }],
      },
    ],
  }),
};
const throwing: SaveView<Pixel> = {
  id: 'broken',
  title: 'Broken',
  available: () => {
    throw new Error('bad view');
  },
  render: () => ({ kind: 'vector', width: 1, height: 1, marks: [] }),
};

describe('views', () => {
  it('a format without views offers none', () => {
    const format = fileFormat(pixel, { id: 'px', title: 'Pixel' });
    expect(format.views).toBeUndefined();
    expect(viewsOf(format, { width: 1, height: 1 })).toEqual([]);
  });

  it('fileFormat keeps the views and the summary', () => {
    const format = fileFormat(pixel, { id: 'px', title: 'Pixel', views: [sizeTable, throwing], summary: () => ['px'] });
    expect(format.views?.map((v) => v.id)).toEqual(['size', 'broken']);
    expect(format.summary?.({ width: 1, height: 2 })).toEqual(['px']);
    expect(viewsOf(format).map((v) => v.id)).toEqual(['size', 'broken']);
  });

  it('viewsOf offers only the views available for a document; a throwing `available` is not offered', () => {
    const format = fileFormat(pixel, { id: 'px', title: 'Pixel', views: [sizeTable, throwing] });
    expect(viewsOf(format, { width: 2, height: 1 }).map((v) => v.id)).toEqual(['size']);
    expect(viewsOf(format, { width: 0, height: 1 })).toEqual([]);
  });

  it("a view's edit returns a new document the codec encodes", () => {
    const doc = { width: 3, height: 4 };
    const picture = sizeTable.render(doc);
    if (picture.kind !== 'table') throw new Error('expected a table');
    const edited = picture.rows[0]?.edits?.[0]?.apply(doc);
    expect(edited).toEqual({ width: 4, height: 4 });
    expect(doc).toEqual({ width: 3, height: 4 });
  });
});
