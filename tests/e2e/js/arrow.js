// Which way an arrow points, read from a screenshot of it (a data: URL): the ink of
// its middle rows lies further right than that of its top and bottom rows when it
// points right.
async (url) => {
  const img = new Image();
  img.src = url;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.width;
  canvas.height = img.height;
  const context = canvas.getContext("2d");
  context.drawImage(img, 0, 0);
  const pixels = context.getImageData(0, 0, img.width, img.height).data;
  // Where the ink is, row by row: an arrow pointing right has the ink of its
  // middle rows further right than that of its top and bottom rows.
  const rows = [];
  for (let y = 0; y < img.height; y++) {
    let ink = 0, sum = 0;
    for (let x = 0; x < img.width; x++) {
      const weight = 255 - pixels[(y * img.width + x) * 4 + 1];
      if (weight > 64) { ink += weight; sum += weight * x; }
    }
    if (ink) rows.push(sum / ink);
  }
  const third = Math.floor(rows.length / 3);
  const mean = (list) => list.reduce((a, b) => a + b, 0) / list.length;
  const middle = mean(rows.slice(third, rows.length - third));
  const ends = mean([...rows.slice(0, third), ...rows.slice(rows.length - third)]);
  return middle > ends ? "right" : "left";
}
