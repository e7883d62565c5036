// KernelPrediction: resolveKernel and predictGrid over the whole kernel on a worker thread, and
// the grid model's refusals put in the editor's words.
#include "document/kernelprediction.h"

#include "document/patterndocument.h"

#include <QLocale>
#include <QMetaObject>
#include <QMetaType>
#include <QStringList>
#include <QThreadPool>

#include <utility>

namespace warpscope::app {

namespace {

/// "81,964": a byte count a person reads and types back.
QString grouped(std::int64_t value) {
    QLocale locale = QLocale::c();
    locale.setNumberOptions(QLocale::DefaultNumberOptions); // the C locale omits the commas
    return locale.toString(static_cast<qlonglong>(value));
}

/// The kernel the current entry is, or a plain expression pattern's one-access kernel (its
/// buffer as large as the model allows: a plain pattern has no bounds to check); empty for
/// explicit addresses.
std::optional<Kernel> currentKernel(const PatternDocument& document) {
    if (document.kernel()) {
        return *document.kernel();
    }
    if (!document.pattern().source) {
        return std::nullopt;
    }
    auto made = kernelFromPatternUnsized(document.pattern());
    if (!made) {
        return std::nullopt;
    }
    return std::move(made).value();
}

} // namespace

KernelPrediction* KernelPrediction::of(PatternDocument* document) {
    if (auto* existing =
            document->findChild<KernelPrediction*>(QString(), Qt::FindDirectChildrenOnly)) {
        return existing;
    }
    return new KernelPrediction(document);
}

KernelPrediction::KernelPrediction(PatternDocument* document)
    : QObject(document), m_document(document), m_pool(new QThreadPool(this)) {
    m_pool->setMaxThreadCount(1);
    // An edit re-walks; a slider drag re-walks as often as the worker keeps up (a newer edit
    // cancels the walk under way).
    connect(document, &PatternDocument::patternChanged, this, &KernelPrediction::restart);
    restart();
}

KernelPrediction::~KernelPrediction() {
    // The worker posts to this object: it must have stopped before the object goes.
    if (m_cancel) {
        m_cancel->store(true);
    }
    m_pool->clear();
    m_pool->waitForDone();
}

void KernelPrediction::restart() {
    std::optional<Kernel> kernel = currentKernel(*m_document);
    if (kernel == m_requested && (m_running > 0 || m_result)) {
        return; // a selection change or a drag that came back: the same kernel
    }
    m_requested = kernel;
    if (m_cancel) {
        m_cancel->store(true);
    }
    m_pool->clear();
    static int nextJob = 1;
    const int job = nextJob++;
    m_latest = job;
    if (!kernel) {
        m_result.reset();
        emit changed();
        return;
    }
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancelled;
    ++m_running;
    m_pool->start([this, job, cancelled, kernel = std::move(*kernel)] {
        KernelPredictionResult result = compute(kernel, cancelled.get());
        QMetaObject::invokeMethod(
            this,
            [this, job, result = std::move(result)]() mutable {
                --m_running;
                if (job != m_latest) {
                    return; // superseded
                }
                m_result = std::move(result);
                emit changed();
            },
            Qt::QueuedConnection);
    });
    emit changed();
}

KernelPredictionResult KernelPrediction::compute(const Kernel& kernel,
                                                 const std::atomic<bool>* cancelled) {
    KernelPredictionResult out;
    out.kernel = kernel;
    auto resolved = resolveKernel(kernel);
    if (!resolved) {
        out.problem = resolved.error();
        return out;
    }
    GridOptions options;
    options.cancelled = cancelled;
    options.worstWarpCount = 0;
    auto prediction = predictGrid(resolved.value(), options);
    if (prediction) {
        out.prediction = std::move(prediction).value();
        return out;
    }
    out.problem = prediction.error();
    if (out.problem->code == ErrorCode::OutOfBounds) {
        const int access = problemAccess(*out.problem);
        if (access >= 0) {
            if (auto extent = gridAddressExtent(resolved.value(), access, options)) {
                out.bytesNeeded = extent.value();
            }
        }
    }
    return out;
}

int KernelPrediction::problemAccess(const Error& problem) {
    const std::string prefix = "/accesses/";
    if (!problem.where.starts_with(prefix)) {
        return -1;
    }
    const QString rest = QString::fromStdString(problem.where.substr(prefix.size()));
    bool ok = false;
    const int index =
        rest.section(QLatin1Char('/'), 0, 0).section(QLatin1Char(' '), 0, 0).toInt(&ok);
    return ok && index >= 0 ? index : -1;
}

int KernelPrediction::problemBuffer(const KernelPredictionResult& result) {
    if (!result.problem || result.problem->code != ErrorCode::OutOfBounds) {
        return -1;
    }
    const int access = problemAccess(*result.problem);
    if (access < 0 || access >= static_cast<int>(result.kernel.accesses.size())) {
        return -1;
    }
    const std::string& name = result.kernel.accesses[static_cast<std::size_t>(access)].buffer;
    for (std::size_t i = 0; i < result.kernel.buffers.size(); ++i) {
        if (result.kernel.buffers[i].name == name) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

QString KernelPrediction::problemText(const KernelPredictionResult& result) {
    if (!result.problem || result.problem->code == ErrorCode::Cancelled) {
        return {};
    }
    const Error& problem = *result.problem;
    const QString message = QString::fromStdString(problem.message);
    const int access = problemAccess(problem);
    if (access < 0 || access >= static_cast<int>(result.kernel.accesses.size())) {
        if (problem.where.empty()) {
            return message;
        }
        // "/grid/0", "/buffers/1/bytes": the place in the editor's words.
        const QStringList parts =
            QString::fromStdString(problem.where).split(QLatin1Char('/'), Qt::SkipEmptyParts);
        bool ok = false;
        const int index = parts.value(1).toInt(&ok);
        if ((parts.value(0) == QLatin1String("grid") || parts.value(0) == QLatin1String("block")) &&
            ok && index >= 0 && index < 3) {
            return tr("Launch %1.%2: %3")
                .arg(parts.value(0))
                .arg(QLatin1Char("xyz"[index]))
                .arg(message);
        }
        if (parts.value(0) == QLatin1String("buffers") && ok && index >= 0 &&
            index < static_cast<int>(result.kernel.buffers.size())) {
            return tr("Buffer \"%1\": %2")
                .arg(QString::fromStdString(
                         result.kernel.buffers[static_cast<std::size_t>(index)].name),
                     message);
        }
        return message;
    }
    // "/accesses/0/address (load in), block (3, 0, 0), thread (29, 0, 0)": numbered from 1 as
    // the access list numbers them, with the core's block and thread kept.
    const KernelAccess& a = result.kernel.accesses[static_cast<std::size_t>(access)];
    const QString where = QString::fromStdString(problem.where);
    const qsizetype comma = where.indexOf(QStringLiteral(", block"));
    const QString place = comma >= 0 ? where.mid(comma + 2) : QString();
    QString text =
        tr("Access %1%2%3: %4")
            .arg(access + 1)
            .arg(a.label.empty() ? QString()
                                 : QStringLiteral(" (%1)").arg(QString::fromStdString(a.label)))
            .arg(place.isEmpty() ? QString() : QStringLiteral(", ") + place)
            .arg(message);
    const int buffer = problemBuffer(result);
    if (buffer >= 0) {
        const KernelBuffer& b = result.kernel.buffers[static_cast<std::size_t>(buffer)];
        bool plainNumber = false;
        QString::fromStdString(b.bytesExpression).trimmed().toLongLong(&plainNumber);
        QString fix;
        if (result.bytesNeeded) {
            fix = tr("This launch reaches %1 bytes of \"%2\": make its size at least %1 in the "
                     "Buffers table")
                      .arg(grouped(*result.bytesNeeded), QString::fromStdString(b.name));
        } else {
            fix = tr("Make \"%1\" larger in the Buffers table").arg(QString::fromStdString(b.name));
        }
        if (plainNumber) {
            // Add (or a pattern made a kernel) sized it for the launch of that moment.
            fix += tr(", or write it as an expression of the parameters so that it follows the "
                      "launch. Its size is a fixed number, sized for an earlier launch.");
        } else {
            fix += tr(", or narrow the access's active expression.");
        }
        text += QStringLiteral(". ") + fix;
    }
    return text;
}

} // namespace warpscope::app
