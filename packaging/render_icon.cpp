// warpscope-render-icon: renders the application's SVG icon to the PNG sizes the icon theme wants
// (build-time helper of packaging/CMakeLists.txt, never installed), so no PNG is drawn by hand.
// Usage: warpscope-render-icon ICON.svg SIZE OUT.png
#include <QImage>
#include <QPainter>
#include <QString>
#include <QSvgRenderer>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: warpscope-render-icon ICON.svg SIZE OUT.png\n");
        return 2;
    }
    const QString svgPath = QString::fromLocal8Bit(argv[1]);
    const int size = std::atoi(argv[2]);
    if (size < 16 || size > 1024) {
        std::fprintf(stderr, "warpscope-render-icon: SIZE must be 16 to 1024, not '%s'\n", argv[2]);
        return 2;
    }
    // Raster painting needs no QGuiApplication as long as the icon has no text.
    QSvgRenderer renderer(svgPath);
    if (!renderer.isValid()) {
        std::fprintf(stderr, "warpscope-render-icon: cannot read the SVG %s\n", argv[1]);
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        renderer.render(&painter);
    }
    if (!image.save(QString::fromLocal8Bit(argv[3]), "PNG")) {
        std::fprintf(stderr, "warpscope-render-icon: cannot write %s\n", argv[3]);
        return 1;
    }
    return 0;
}
